/**
 * Setup of the `cluster` Jest project (jest.config.js): every test server of its suites is two
 * instances on one store behind a round-robin balancer (cluster-server.ts).
 */
process.env.FLEET_TEST_INSTANCES = '2';
