/**
 * A lazily loaded module (or any async value) shared by every caller: loaded on the first call,
 * the same promise for the calls that follow, and loaded again after a failure, so a transient
 * error (a file being replaced during an update) is not remembered for the rest of the process.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (!loading) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = undefined;
      });
    }
    return loading;
  };
}
