// A test driver for the Next.js route handler, without Next: import the route module and call its
// exports with a Request, as Next would. Run: npx tsx examples/next-route-handler/main.ts
const { GET, POST } = await import('./app/v1/[...path]/route.js');

const key = (process.env.PETSTORE_API_KEYS ?? 'example-key').split(',')[0]!;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const created = await POST(
  new Request('http://localhost:3000/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name: 'Vercel', categoryId: 1 }) }),
);
const listed = await GET(new Request('http://localhost:3000/v1/pets', { headers }));
const pets = (await listed.json()) as { name: string }[];
console.log(`self-test: POST /v1/pets -> ${created.status}; GET /v1/pets -> ${listed.status} ${JSON.stringify(pets)}`);
process.exit(created.status === 201 && listed.status === 200 && pets[0]?.name === 'Vercel' ? 0 : 1);
