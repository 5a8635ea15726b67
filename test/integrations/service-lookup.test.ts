/**
 * The resources reach the integrations through `runtime.services`, a typed record whose slots the
 * ports declare once (resources/ports: `master`, `vpn`). No service is a 503 naming what to
 * configure; a registration that lacks a method of its port does not compile.
 */
import { createEngine, ServiceUnavailable, systemContext, type Services } from '../../engine/src';
import { allResources, master, masterIfRunning, vpn, type MasterService } from '../../resources';
import { startTestServer, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const engineWith = (services: Services) =>
  createEngine({
    definitions: allResources,
    store: s.store,
    secrets: s.secrets,
    log: s.server.log,
    services,
  });
const fn = async () => ({});

test('no started service: master() and vpn() answer 503, masterIfRunning() undefined', () => {
  const ctx = systemContext(engineWith({}).runtime);
  expect(() => master(ctx)).toThrow(ServiceUnavailable);
  expect(() => master(ctx)).toThrow(/SALT_API_URL/);
  expect(() => vpn(ctx)).toThrow(ServiceUnavailable);
  expect(masterIfRunning(ctx)).toBeUndefined();
});

test('a started service is the one the resources get; a service lacking a method is a type error', () => {
  const complete: MasterService = {
    execute: async () => ({ task_id: '', status: 'success', return: { return: [] } }),
    downloadPatches: async () => ({ created: 0, updated: 0, names: [] }),
    monitoring: fn,
    syncNow: fn,
    outwardAddresses: async () => [],
  };
  const services: Services = { master: complete };
  expect(master(systemContext(engineWith(services).runtime))).toBe(complete);
  const four = {
    execute: complete.execute,
    downloadPatches: complete.downloadPatches,
    monitoring: fn,
    syncNow: fn,
  };
  // @ts-expect-error: the master port has five methods; a service with four does not compile
  const partial: Services = { master: four };
  expect(partial.master).toBeDefined();
});

test('the server fills the record and empties it on close', async () => {
  const t = await startTestServer();
  const services = t.engine.runtime.services;
  expect(services.vpn).toBeDefined();
  expect(services.master).toBeUndefined();
  await t.close();
  expect(services.vpn).toBeUndefined();
});
