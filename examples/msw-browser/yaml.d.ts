// The build (scripts/lib/example-msw.js) parses YAML at build time: importing a .yaml file gives its parsed value.
declare module '*.yaml' {
  const value: Record<string, unknown>;
  export default value;
}
