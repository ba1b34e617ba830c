/**
 * A real SMTP server (smtp-server) on 127.0.0.1 in a child process, for timing tests: the
 * issuer runs in the test's process, and a sink there would parse each message on the same
 * event loop, adding its own work to exactly the addresses that get mail. This one accepts
 * plain SMTP (smtp+insecure://), discards each message, and reports its recipients.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { ROOT } from './run-cli.js';

const SERVER = `
import { SMTPServer } from 'smtp-server';
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    stream.on('end', () => {
      process.stdout.write('mail ' + session.envelope.rcptTo.map((r) => r.address).join(',') + '\\n');
      callback();
    });
    stream.resume();
  },
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.server.address().port + '\\n'));
`;

export interface SmtpSinkProcess {
  /** smtp+insecure://127.0.0.1:<port> */
  url: string;
  /** The recipients of every message received so far. */
  recipients: string[];
  close(): Promise<void>;
}

export function startSmtpSinkProcess(): Promise<SmtpSinkProcess> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', SERVER], { cwd: ROOT });
    const recipients: string[] = [];
    let buffered = '';
    child.on('error', reject);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [kind, value = ''] = line.split(' ');
        if (kind === 'mail') recipients.push(...value.split(','));
        if (kind === 'port')
          resolve({
            url: `smtp+insecure://127.0.0.1:${value}`,
            recipients,
            close: () =>
              new Promise((done) => {
                child.once('exit', () => done());
                child.kill();
              }),
          });
      }
    });
  });
}
