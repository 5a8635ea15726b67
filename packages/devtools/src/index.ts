/** @fleet/devtools: development tools that run simulators beside the API (the demo). Never deployed. */
export { demoCommand } from './demo';
