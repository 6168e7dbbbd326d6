/** @type {import('jest').Config} */
module.exports = { preset: '@cloud/jest-preset' };
