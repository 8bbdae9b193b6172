/**
 * A renderer of the API reference page, passed as `createPetStore({ docs })`. The store serves
 * the page at `{basePath}/docs` and the renderer's files under `{basePath}/docs/`; the page
 * renders the store's OpenAPI document, `{basePath}/openapi.json`. `apiReference()` from
 * `petstore-router/docs` is the one the package ships (Swagger UI); the core never imports it.
 */
export interface ApiReference {
  /**
   * The HTML of the page, given the URLs of the document (`openapi.json`) and of the folder of the
   * renderer's files (`docs`), both relative to the page: use them as they are, so the page works
   * under any prefix the store is mounted at.
   */
  page(urls: { document: string; assets: string }): string;
  /**
   * One file the page loads, by name (`swagger-ui.css`); `undefined` for a name it does not serve.
   * Called on each request for a file: cache what is costly to load.
   */
  asset(name: string): Promise<{ body: string | Uint8Array; type: string } | undefined>;
}
