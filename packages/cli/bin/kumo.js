#!/usr/bin/env node
// The `kumo` command: runs the built command line (dist/), and says so plainly when it has not been built.
let cli;
try {
  cli = await import('../dist/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write('kumo: the command line is not built yet: run npm run build -w @kumo/cli\n');
  process.exit(2);
}
process.exitCode = await cli.main(process.argv);
