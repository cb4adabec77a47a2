import { InvalidArgumentError } from 'commander';

/** A non-empty flag value without surrounding blanks. */
export function nonEmpty(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new InvalidArgumentError('expected a non-empty value');
  return trimmed;
}
