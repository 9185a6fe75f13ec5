/** The kernel API version external plugins declare a range against (`kernel: "^0.2.0"`). */
export const KERNEL_VERSION = '0.2.0';
