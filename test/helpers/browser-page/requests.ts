// The requests the browser-store test sends, built the same way in the page and in Node, so the
// page's answers can be held against the server's.
export const KEY = 'demo-key';
const ORIGIN = 'http://petstore.test';

export function scenarioRequests(): Request[] {
  const json = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  return [
    new Request(`${ORIGIN}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Rex', categoryId: 7, status: 'pending' }),
    }),
    new Request(`${ORIGIN}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } }),
    new Request(`${ORIGIN}/v1/pets/1`, { headers: { authorization: `Bearer ${KEY}` } }),
    new Request(`${ORIGIN}/v1/pets`),
    new Request(`${ORIGIN}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Tom"}' }),
  ];
}

export function listRequest(): Request {
  return new Request(`${ORIGIN}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } });
}

/** What is compared: status, the headers a client reads, the body; not the request id. */
export interface Answer {
  status: number;
  contentType: string | null;
  location: string | null;
  body: string;
}

export async function answerOf(res: Response): Promise<Answer> {
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    location: res.headers.get('location'),
    body: await res.text(),
  };
}
