import { buildOpenApiDocument } from '@gpt/contracts/openapi';
import { runMain } from '@gpt/kit';
import { startGateway } from './start';

await runMain(async () => {
  const running = await startGateway({ openapi: buildOpenApiDocument });
  return { logger: running.logger, close: running.close };
});
