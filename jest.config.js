/** Jest: TypeScript through ts-jest (transpile only; `pnpm typecheck` checks types once for all). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/engine', '<rootDir>/resources', '<rootDir>/packages', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 30000,
  // The tests that run the `fleet` bin run the compiled server: built first when a source changed.
  globalSetup: '<rootDir>/scripts/jest-global-setup.cjs',
  // Tests write scratch copies (generated resources, a copied workspace) under test/.tmp: their
  // package.json files must not register as second copies of the workspace packages.
  modulePathIgnorePatterns: ['<rootDir>/test/\\.tmp/.*package\\.json$'],
  maxWorkers: process.env.CI ? 2 : '50%',
};
