// CPU profiles (--cpu-prof) of GET /shipments/{id}, POST /shipments and start-up, cut to the measured window: where the main thread's time goes.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { copyData } from '../lib/data.js';
import { measure, type Measured } from '../lib/measure.js';
import { startSandbox } from '../lib/server.js';
import { summariseProfile, type ProfileSummary } from '../profile.js';
import { endpoints, prepare } from './endpoints.js';

export interface Profile {
  scenario: string;
  summary: ProfileSummary;
  rps?: number;
}

async function profiled(
  dir: string,
  seeded: string,
  scenarioKey: 'get' | 'create',
): Promise<{ scenario: string; summary: ProfileSummary; measured: Measured }> {
  const profileDir = join(dir, `profile-${scenarioKey}`);
  const copy = await copyData(seeded, dir, `profile-data-${scenarioKey}`);
  const server = await startSandbox(`sandbox (--cpu-prof)`, copy, { nodeFlags: ['--cpu-prof', '--cpu-prof-dir', profileDir] });
  const scenario = endpoints(await prepare(server))[scenarioKey];
  const measured = await measure(server, scenario);
  await server.stop(true);
  const files = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no CPU profile was written to ${profileDir}`);
  // Only the measured run: no start-up, no warm-up.
  const summary = await summariseProfile(join(profileDir, files[0]!), { fromMs: measured.window!.fromMs + 50, toMs: measured.window!.toMs - 50 });
  return { scenario: scenario.name, summary, measured };
}

/** A CPU profile of one start: from the process start to the first 200 on /health. */
async function profiledStartup(dir: string, seeded: string): Promise<{ scenario: string; summary: ProfileSummary; startupMs: number }> {
  const profileDir = join(dir, 'profile-startup');
  const copy = await copyData(seeded, dir, 'profile-data-startup');
  const server = await startSandbox('sandbox (--cpu-prof, start-up)', copy, { nodeFlags: ['--cpu-prof', '--cpu-prof-dir', profileDir] });
  await server.stop(true);
  const files = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no CPU profile was written to ${profileDir}`);
  const summary = await summariseProfile(join(profileDir, files[0]!), { toMs: server.startupMs });
  return { scenario: 'start-up (seeded data file)', summary, startupMs: server.startupMs };
}

export async function profileRuns(dir: string, pristine: string): Promise<Profile[]> {
  const profiles: Profile[] = [];
  for (const key of ['get', 'create'] as const) {
    const { scenario, summary, measured } = await profiled(dir, pristine, key);
    profiles.push({ scenario, summary, rps: measured.rps });
  }
  const start = await profiledStartup(dir, pristine);
  profiles.push({ scenario: `${start.scenario}, ${start.startupMs} ms while profiled`, summary: start.summary });
  return profiles;
}
