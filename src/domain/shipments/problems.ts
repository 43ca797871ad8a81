import { ApiError, errorObject, type ErrorObject } from '../../jsonapi/errors.js';

/**
 * Collects every business-rule violation of a request, so a client learns all of them at once
 * rather than one per attempt; `throwIfAny` answers 422/10008 with one error per problem.
 */
export class Problems {
  private readonly list: ErrorObject[] = [];

  add(detail: string, pointer: string): void {
    this.list.push(errorObject('unprocessable', detail, { source: { pointer } }));
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new ApiError(this.list, { status: 422 });
  }
}
