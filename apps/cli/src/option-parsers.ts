import { InvalidArgumentError } from 'commander';

// Parsers for option values, shared by the command modules (program.ts imports them, never the reverse).

/** A whole number ≥ 1 from an option's text (commander reports the refusal as a usage error). */
export function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return value;
}

/** A whole number ≥ 0 from an option's text. */
export function nonNegativeInteger(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 0) throw new InvalidArgumentError('must be a whole number of at least 0');
  return value;
}
