import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { cb58Encode } from '@cloud/chains';

/** A primary-network validator registered with `dev.registerValidator`. */
export interface Validator {
  txID: string;
  nodeID: string;
  /** Unix seconds. */
  startTime: number;
  endTime: number;
  /** nAVAX as decimal strings: stakes pass 2^53. */
  weight: string;
  delegatorWeight: string;
}

export type ValidatorRegistration = Omit<Validator, 'txID'>;

interface RegistryFile {
  /** When the data directory was first used (unix seconds): the C-chain's blocks count from here. */
  genesisTime: number;
  validators: Validator[];
}

function isValidator(value: unknown): value is Validator {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.txID === 'string' &&
    typeof entry.nodeID === 'string' &&
    Number.isSafeInteger(entry.startTime) &&
    Number.isSafeInteger(entry.endTime) &&
    typeof entry.weight === 'string' &&
    typeof entry.delegatorWeight === 'string'
  );
}

function parseRegistryFile(text: string, path: string): RegistryFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const file = value as Partial<RegistryFile> | null;
  if (!file || !Number.isSafeInteger(file.genesisTime) || !Array.isArray(file.validators) || !file.validators.every(isValidator)) {
    throw new Error(`${path}: not a validator registry ({genesisTime, validators: [...]})`);
  }
  return file as RegistryFile;
}

/** Replaces the file in one step (temporary file, fsync, rename), so a crash leaves the old or the new one whole. */
function writeAtomically(path: string, state: RegistryFile): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, `${JSON.stringify(state, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/**
 * The P-chain's validator set as the dev chain keeps it: `<data-dir>/validators.json`, rewritten
 * whole on each registration. Each registration is one accepted P-chain block, so the height is the
 * number of registrations.
 */
export class ValidatorRegistry {
  private constructor(
    readonly path: string,
    private state: RegistryFile,
  ) {}

  /** Opens the registry of a data directory, creating both when missing. */
  static open(dataDir: string, nowSeconds: number): ValidatorRegistry {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, 'validators.json');
    if (existsSync(path)) return new ValidatorRegistry(path, parseRegistryFile(readFileSync(path, 'utf8'), path));
    const state = { genesisTime: nowSeconds, validators: [] };
    writeAtomically(path, state);
    return new ValidatorRegistry(path, state);
  }

  get genesisTime(): number {
    return this.state.genesisTime;
  }

  get height(): number {
    return this.state.validators.length;
  }

  /**
   * What getCurrentValidators lists: every validator whose end time has not come, including those
   * that start later (avalanchego ≥ 1.11.3 has no separate pending set).
   */
  current(nowSeconds: number): Validator[] {
    return this.state.validators.filter((validator) => validator.endTime > nowSeconds);
  }

  /** Records a validator; throws when the same node already validates during part of its period. */
  register(registration: ValidatorRegistration): Validator {
    const clash = this.state.validators.find(
      (other) => other.nodeID === registration.nodeID && other.startTime < registration.endTime && registration.startTime < other.endTime,
    );
    if (clash) throw new Error(`${registration.nodeID} is already a validator from ${clash.startTime} to ${clash.endTime} (txID ${clash.txID})`);
    const digest = createHash('sha256')
      .update(JSON.stringify({ ...registration, height: this.height + 1 }))
      .digest();
    const validator: Validator = { txID: cb58Encode(digest), ...registration };
    const next = { ...this.state, validators: [...this.state.validators, validator] };
    writeAtomically(this.path, next);
    this.state = next;
    return validator;
  }
}
