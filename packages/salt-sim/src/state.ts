/**
 * `state.apply` / `state.sls` / `state.highstate` returns (salt/modules/state.py): a dict keyed
 * `<module>_|-<id>_|-<name>_|-<function>` whose entries carry name, changes, result,
 * comment, __sls__, __run_num__, start_time (minion-local `HH:MM:SS.ffffff`), duration
 * (float ms) and __id__. A `result: false` step makes the job retcode 2; an sls that does
 * not exist is a list of error strings with retcode 1.
 */
import type { Fleet, SimMinion } from './model';
import { toolTimestamp } from './model';

/** The outcome of running a function on one minion. */
export interface MinionOutput {
  ret: unknown;
  retcode: number;
  out?: string;
  /** The minion is still running it when the master stops waiting: no return comes. */
  noReturn?: true;
  /**
   * The function did not return normally (it is missing, or raised): `_thread_return` leaves
   * `success: False` then, in every version, while a function that returned is `success: True`
   * in 2018.3 whatever its retcode.
   */
  raised?: true;
}

interface SlsStep {
  id: string;
  module: string;
  fun: string;
  name: string;
}

/** Reads the tiny sls dialect the simulator's own files use (`id:` / `  mod.fun:` / `- name:`). */
export function parseSls(text: string): SlsStep[] {
  const steps: SlsStep[] = [];
  let id: string | undefined;
  for (const line of text.split('\n')) {
    const idMatch = /^([^\s#][^:]*):\s*$/.exec(line);
    const funMatch = /^ {2}(\w+)\.(\w+):\s*$/.exec(line);
    const nameMatch = /^ {4}- name: (.+)$/.exec(line);
    if (idMatch?.[1] !== undefined) id = idMatch[1];
    else if (funMatch?.[1] !== undefined && funMatch[2] !== undefined && id !== undefined) {
      steps.push({ id, module: funMatch[1], fun: funMatch[2], name: id });
    } else if (nameMatch?.[1] !== undefined) {
      const last = steps[steps.length - 1];
      if (last) last.name = nameMatch[1];
    }
  }
  return steps;
}

function timeOfDay(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 23)}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
}

function runStep(step: SlsStep, sls: string, runNum: number, fail: boolean): Record<string, unknown> {
  const base = {
    name: step.name,
    __sls__: sls,
    __run_num__: runNum,
    start_time: timeOfDay(Date.now()),
    duration: Math.round(Math.random() * 250_000) / 1000,
    __id__: step.id,
  };
  if (step.module !== 'cmd') {
    return {
      ...base,
      changes: {},
      result: true,
      comment:
        step.module === 'pkg'
          ? 'All specified packages are already installed'
          : `File ${step.name} is in the correct state`,
    };
  }
  const retcode = fail ? 100 : 0;
  const changes = {
    pid: 1000 + Math.floor(Math.random() * 60_000),
    retcode,
    stdout: fail ? '' : `${step.name.split(' ')[0] ?? step.name}: done`,
    stderr: fail
      ? 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 2211 (unattended-upgr)'
      : '',
  };
  // states/cmd.py: the comment is the same either way; result is retcode == 0.
  return { ...base, changes, result: !fail, comment: `Command "${step.name}" run` };
}

function slsFile(fleet: Fleet, sls: string): string | undefined {
  const path = sls.replace(/\./g, '/');
  return fleet.files.get(`${path}.sls`) ?? fleet.files.get(`${path}/init.sls`);
}

/** Runs the given sls modules (or the highstate when none) on one minion. */
export function stateApply(fleet: Fleet, minion: SimMinion, mods: string[]): MinionOutput {
  const wanted = mods.length > 0 ? mods : ['common'];
  const missing = wanted.filter((sls) => slsFile(fleet, sls) === undefined);
  if (missing.length > 0) {
    return { ret: missing.map((sls) => `No matching sls found for '${sls}' in env 'base'`), retcode: 1 };
  }
  const ret: Record<string, unknown> = {};
  let runNum = 0;
  let failedOne = false;
  for (const sls of wanted) {
    for (const step of parseSls(slsFile(fleet, sls) ?? '')) {
      const fail: boolean = minion.failingStates && step.module === 'cmd' && !failedOne;
      failedOne ||= fail;
      ret[`${step.module}_|-${step.id}_|-${step.name}_|-${step.fun}`] = runStep(step, sls, runNum, fail);
      runNum += 1;
    }
  }
  if (!failedOne) {
    const tool = minion.grains[fleet.toolKey];
    const toolObj = tool !== null && typeof tool === 'object' ? (tool as Record<string, unknown>) : {};
    minion.grains[fleet.toolKey] = { ...toolObj, last_stateapply: toolTimestamp(Date.now()) };
  }
  return { ret, retcode: failedOne ? 2 : 0, out: 'highstate' };
}
