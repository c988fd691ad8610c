/**
 * @module
 * The Echo service (`schemas/echo/v1/echo.proto`), served over Connect and gRPC alike. The method
 * signatures come from the generated `EchoService`.
 */

import type { RpcContext } from 'loom/connect/server';
import { RpcError } from 'loom/connect/server';
import type { EchoService } from '../../generated/echo/v1/echo.server.js';
import type { CountRequest, CountResponse, SayRequest, SayResponse } from '../../generated/echo/v1/echo.types.js';

export class EchoHandler implements EchoService {
  async say(request: SayRequest): Promise<SayResponse> {
    if (request.sentence === '') throw new RpcError('invalid_argument', 'say something');
    return { sentence: request.sentence };
  }

  async *count(request: CountRequest, ctx: RpcContext): AsyncIterable<CountResponse> {
    if (request.to > 100) throw new RpcError('out_of_range', 'count to 100 at most');
    for (let number = 1; number <= request.to && !ctx.signal.aborted; number++) yield { number };
  }
}
