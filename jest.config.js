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
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/{server,projections,tests}/**/*.int.spec.ts'],
    },
  ],
};
