/** A mistake in the command line or its input files: exit code 2 and a hint to the usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure already reported on stderr (e.g. some manifests failed): exit code 1, nothing more printed. */
export class ReportedFailure extends Error {
  override name = 'ReportedFailure';
}
