import { DomainError, type Problem } from '../errors.js';

/**
 * Collects every business-rule violation of a request, so a client learns all of them at once
 * rather than one per attempt; `throwIfAny` throws one unprocessable error carrying them all.
 */
export class Problems {
  private readonly list: Problem[] = [];

  add(detail: string, pointer: string): void {
    this.list.push({ detail, where: { pointer } });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new DomainError('unprocessable', this.list);
  }
}
