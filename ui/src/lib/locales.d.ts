// The shape of the UI catalogs that scripts/i18n.py compile writes (see i18n.svelte.ts). When the
// file exists TypeScript reads it (moduleResolution "bundler" resolves JSON); this declaration
// keeps type-checking working in a checkout where compile has not run yet.
declare module "*/locales.generated.json" {
  const catalogs: {
    readonly _comment: string;
    readonly en: Readonly<Record<string, string>>;
    readonly fr: Readonly<Record<string, string>>;
  };
  export default catalogs;
}
