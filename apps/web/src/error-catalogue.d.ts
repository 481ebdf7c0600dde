// The modules of vite.config.ts's error catalogue plugin.
declare module 'virtual:error-catalogue/codes' {
  const codes: readonly string[];
  export default codes;
}

declare module 'virtual:error-catalogue/*' {
  const texts: Record<string, string>;
  export default texts;
}
