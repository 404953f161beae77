// Jest runs in native ESM mode (NestJS 12 is ESM-only): see docs/decisions/0002-esm-typescript-toolchain.md.
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: {
    '^@portal/projections$': '<rootDir>/projections/src/index.ts',
    '^@portal/projections/(.*)$': '<rootDir>/projections/src/$1.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
  rootDir: '.',
};

export default {
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{server,projections,tests,client}/**/*.unit.spec.ts'],
    },
    {
      // The time kernel and the planner again, on a host in Asia/Tokyo (decision 0052).
      ...common,
      displayName: 'unit-tokyo',
      testMatch: [
        '<rootDir>/server/src/core/time/**/*.unit.spec.ts',
        '<rootDir>/server/src/lessons/**/*planner*.unit.spec.ts',
        '<rootDir>/server/src/lessons/**/teacher-grid.unit.spec.ts',
      ],
      testEnvironment: '<rootDir>/server/src/core/time/tokyo-host.environment.mjs',
    },
    {
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/{server,projections,tests}/**/*.int.spec.ts'],
    },
  ],
};
