/**
 * The scale-out rig on the embedded store: three `fleet serve` processes on one SQLite file
 * behind a round-robin balancer, with the simulated master and VPN server (scenario.ts).
 */
import { rigScenario } from './scenario';

jest.setTimeout(180_000);

rigScenario('SQLite');
