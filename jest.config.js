/**
 * Jest: TypeScript through ts-jest (transpile only; `pnpm typecheck` checks types once for all).
 * Two projects: every test in one process, and the suites that drive the master, the tasks, the
 * statistics and the VPN a second time against two instances on one store behind a round-robin
 * balancer (`cluster`: FLEET_TEST_INSTANCES=2, test/helpers/cluster-server.ts), so that whatever
 * one process does, a deployment of several does too. (The scale-out rig itself, test/scale, runs
 * in the first: three instances, with kills.)
 */
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 30000,
  // The tests that run the `fleet` bin run the compiled server: built first when a source changed.
  globalSetup: '<rootDir>/scripts/jest-global-setup.cjs',
  // Tests write scratch copies (generated resources, a copied workspace) under test/.tmp: their
  // package.json files must not register as second copies of the workspace packages.
  modulePathIgnorePatterns: ['<rootDir>/test/\\.tmp/.*package\\.json$'],
};

/**
 * The suites run again against a deployment of two instances: those whose behaviour depends on
 * which instance answers or on work an instance does beside requests (executions and their
 * records, async jobs, monitoring, the scheduler, snapshots, the master's faults and sessions, the
 * VPN's services and reconcile). Suites of per-request reads and writes with nothing held per
 * process (the tasks resource's validation, the statistics' range syntax, patch downloads) run
 * once: the second project is kept to a few minutes of CI.
 */
const CLUSTER_SUITES = [
  'test/integrations/exec.test.ts',
  'test/integrations/monitoring.test.ts',
  'test/integrations/outcomes.test.ts',
  'test/integrations/master-faults.test.ts',
  'test/integrations/scheduler.test.ts',
  'test/http/statistics.test.ts',
  'test/http/snapshots.test.ts',
  'test/vpn-integration/organizations.test.ts',
  'test/vpn-integration/accounts.test.ts',
  'test/vpn-integration/reconcile.test.ts',
];

module.exports = {
  testTimeout: common.testTimeout,
  maxWorkers: process.env.CI ? 2 : '50%',
  projects: [
    {
      ...common,
      displayName: 'one process',
      roots: ['<rootDir>/engine', '<rootDir>/resources', '<rootDir>/packages', '<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'cluster',
      roots: ['<rootDir>/test'],
      testMatch: CLUSTER_SUITES.map((file) => `<rootDir>/${file}`),
      setupFiles: ['<rootDir>/test/helpers/cluster-env.ts'],
    },
  ],
};
