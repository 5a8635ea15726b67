/**
 * The resources reach the integrations through `runtime.services`, a map of unknown values: a
 * service is used as MasterService / VpnService only once every method is checked
 * (resources/lib/service.ts). No service is a 503; a registration lacking a method fails loudly.
 */
import { createEngine, ServiceUnavailable, systemContext } from '../../engine/src';
import { allResources, master, masterIfRunning, vpn } from '../../resources';
import { startTestServer, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const engineWith = (services: Map<string, unknown>) =>
  createEngine({
    definitions: allResources,
    store: s.store,
    secrets: s.secrets,
    log: s.server.log,
    services,
  });
const fn = async () => ({});

test('no registered service: master() and vpn() answer 503, masterIfRunning() undefined', () => {
  const ctx = systemContext(engineWith(new Map()).runtime);
  expect(() => master(ctx)).toThrow(ServiceUnavailable);
  expect(() => vpn(ctx)).toThrow(ServiceUnavailable);
  expect(masterIfRunning(ctx)).toBeUndefined();
});

test('a registration that lacks a method is refused, a complete one is returned as it is', () => {
  const partial = { execute: fn, downloadPatches: fn, monitoring: fn, syncNow: fn };
  const complete = { ...partial, outwardAddresses: fn };
  expect(() => master(systemContext(engineWith(new Map([['master', partial]])).runtime))).toThrow(
    'the service registered as "master" does not implement it',
  );
  expect(master(systemContext(engineWith(new Map([['master', complete]])).runtime))).toBe(complete);
});
