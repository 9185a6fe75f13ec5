/** A usage or configuration mistake the user must fix; the CLI prints it and exits 2. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}
