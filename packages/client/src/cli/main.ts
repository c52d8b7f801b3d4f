import { SessionExpiredError } from '../errors.ts';
import { parseCommandLine } from './args.ts';
import { describeError, handlers, type Io } from './commands.ts';
import { ReportedFailure, UsageError } from './errors.ts';

/** Runs one command line; returns the exit code (0 ok, 1 failure, 2 usage). */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  try {
    const cmd = parseCommandLine(argv);
    await handlers[cmd.command]!(cmd, io);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error: ${e.message}\nRun weirctl help for usage.\n`);
      return 2;
    }
    if (e instanceof ReportedFailure) return 1;
    if (e instanceof SessionExpiredError) {
      io.err(`error: ${e.message} (weirctl login)\n`);
      return 1;
    }
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const tls = cause?.code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(cause.code);
    io.err(
      `error: ${describeError(e)}${cause?.message ? ` (${cause.message})` : ''}${tls ? "\nThe server's certificate is not trusted: give --ca FILE, or --insecure for a test server." : ''}\n`,
    );
    return 1;
  }
}
