/** Reported by /health and the CLI; kept in step with package.json by hand. */
export const VERSION = '0.1.0';
