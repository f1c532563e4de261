import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

// Placeholder so the stack can bundle this entry while the real handler is written.
export async function handler(_event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  return {
    statusCode: 503,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    body: JSON.stringify({ error: 'Uw bericht kon nu niet worden opgeslagen. Probeer het over enkele minuten opnieuw.' }),
  };
}
