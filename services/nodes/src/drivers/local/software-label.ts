// Words that name no software: `Bitcoin Core daemon version v28.0.0`, `anvil Version: 1.7.1`.
const FILLER_WORDS = new Set(['daemon', 'version']);

/**
 * `<name>-<version>` from the first line a program prints for `-version`:
 * `Litecoin Core version v0.21.2.1-gfce5d…` → `litecoin-core-0.21.2.1`, `anvil Version: 1.7.1` →
 * `anvil-1.7.1`, `avalanchego/1.11.13 [...]` → `avalanchego-1.11.13`. Undefined when the line names no version.
 */
export function softwareLabel(versionOutput: string): string | undefined {
  const firstLine = versionOutput.split('\n').find((line) => line.trim() !== '') ?? '';
  // avalanchego says `avalanchego/1.11.13 [database=v1.4.5, ...]`.
  const match = /^(.*?)(?:\s+|\/)v?(\d+(?:\.\d+)+)/.exec(firstLine.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const words = match[1]
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !FILLER_WORDS.has(word));
  return words.length === 0 ? undefined : `${words.join('-')}-${match[2]}`;
}
