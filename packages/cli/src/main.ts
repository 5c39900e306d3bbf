/**
 * The command line's entry: runs one command and answers its exit status. Every failure ends as one line on standard
 * error, `kumo: <what happened>`, with the status that says which kind it was (errors.ts); never a stack trace.
 */
import { CommanderError, type Command } from 'commander';
import { createContext, type Io } from './context.js';
import { ApiError, CliError, EXIT, type ExitCode } from './errors.js';
import { buildProgram } from './program.js';

export function processIo(): Io {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    stdin: process.stdin,
  };
}

/** Commander's own messages as `kumo: …`, everywhere in the tree. */
function routeOutput(command: Command, io: Io): void {
  command.exitOverride();
  command.configureOutput({
    writeOut: io.stdout,
    writeErr: io.stderr,
    outputError: (text, write) => write(`kumo: ${text.replace(/^error: /, '')}`),
  });
  for (const child of command.commands) routeOutput(child, io);
}

export async function main(argv: readonly string[], io: Io = processIo()): Promise<ExitCode> {
  // The settings read --api-url once the command line is parsed, when a command runs.
  const context = createContext(io, () => program.opts<{ apiUrl?: string }>().apiUrl);
  const program = buildProgram(context);
  routeOutput(program, io);
  try {
    await program.parseAsync([...argv]);
    return EXIT.ok;
  } catch (error) {
    return failed(error, io);
  }
}

function failed(error: unknown, io: Io): ExitCode {
  if (error instanceof CommanderError) {
    // --help and --version are not failures; a group named without its command printed its help; other errors are printed.
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof CliError) {
    io.stderr(`kumo: ${error.message}${error instanceof ApiError && error.status === 401 ? signInAgain(io) : ''}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`kumo: ${message}\n`);
  return EXIT.api;
}

/** What to do about a token the portal no longer takes: it came from KUMO_TOKEN, or from `kumo login`. */
function signInAgain(io: Io): string {
  return io.env.KUMO_TOKEN?.trim()
    ? '; KUMO_TOKEN holds that token: set a valid one, or unset it to use the saved one'
    : '; sign in again with: kumo login --token';
}
