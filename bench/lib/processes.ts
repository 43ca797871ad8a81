// Child processes and the bench's own log: every child is tracked so a failed or finished run leaves none behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './options.js';

export const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Every child still running; each module that spawns one adds it here and removes it when it ends. */
export const children = new Set<ChildProcess>();

export function killChildren(): void {
  for (const child of children) child.kill('SIGKILL');
}

export function run(command: string, argv: string[], options: { cwd?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, argv, { cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      children.delete(child);
      done({ code: code ?? 1, stdout, stderr });
    });
  });
}
