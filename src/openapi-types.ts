/** A JSON object, as the document is built: plain data, `JSON.stringify`-safe (no bigint). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonObject = { [key: string]: any };

/** One entry of the document's `servers`. */
export interface OpenApiServer {
  /** Absolute (or relative) URL of the API, ending in the base path, e.g. `https://api.example.com/v1`. */
  url: string;
  description?: string;
}

/** The OpenAPI 3.1 document, typed at the top level; everything below is plain JSON. */
export interface OpenApiDocument extends JsonObject {
  openapi: '3.1.0';
  info: JsonObject & { title: string; version: string };
  servers: OpenApiServer[];
  paths: Record<string, Record<string, JsonObject>>;
  components: JsonObject;
}
