// Runs an app's async main; a failure at boot is printed and stops the process
// with a non-zero code instead of leaving a half-started app behind.
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(
      `fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
