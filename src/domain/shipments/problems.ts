import { DomainError, type Field, type Problem } from '../errors.js';

/**
 * Collects every business-rule violation of a request, so a client learns all of them at once
 * rather than one per attempt; `throwIfAny` throws one unprocessable error carrying them all.
 */
export class Problems {
  private readonly list: Problem[] = [];

  add(detail: string, field: Field): void {
    this.list.push({ detail, field });
  }

  /** What is wrong, in the order it was found. */
  get details(): string[] {
    return this.list.map((problem) => problem.detail);
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new DomainError('unprocessable', this.list);
  }
}
