/**
 * A renderer of the API reference page, passed as `createPetStore({ docs })`. The store serves
 * the page at `{basePath}/docs`, the renderer's files under `{basePath}/docs/`, and the OpenAPI
 * document the page renders at `{basePath}/docs/openapi.json`. `apiReference()` from
 * `petstore-router/docs` is the one the package ships (Swagger UI); the core never imports it.
 */
export interface ApiReference {
  /** The HTML of the page, given the absolute paths of the document and of the renderer's files. */
  page(urls: { document: string; assets: string }): string;
  /**
   * One file the page loads, by name (`swagger-ui.css`); `undefined` for a name it does not serve.
   * Called on each request for a file: cache what is costly to load.
   */
  asset(name: string): Promise<{ body: string | Uint8Array; type: string } | undefined>;
}
