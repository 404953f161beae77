// Test environment of the `unit-tokyo` jest project: the time kernel's and planner's specs run again on
// a host in Asia/Tokyo, to prove no answer depends on the host's zone (decision 0052). It sets the
// worker's real TZ (a setup file would only change the sandbox's copy of process.env) and puts it back
// afterwards, since workers are shared with the other projects.
import { TestEnvironment } from 'jest-environment-node';

export default class TokyoHostEnvironment extends TestEnvironment {
  constructor(config, context) {
    const previous = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    super(config, context);
    this.previousTz = previous;
    this.global.process.env.TZ = 'Asia/Tokyo';
  }

  async teardown() {
    if (this.previousTz === undefined) delete process.env.TZ;
    else process.env.TZ = this.previousTz;
    await super.teardown();
  }
}
