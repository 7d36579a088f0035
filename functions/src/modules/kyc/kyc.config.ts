import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The kyc module's switch: the size of one paper.
export const kycSwitches = defineSwitches({
  KYC_MAX_FILE_BYTES: { schema: positiveInt(10 * 1024 * 1024, 50 * 1024 * 1024), effect: 'size limit of one paper (413 beyond)' },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof kycSwitches> {}
}
