import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";

// The window loads ui/dist/index.html through pywebview's local server: relative asset paths.
export default defineConfig({
  base: "./",
  plugins: [svelte()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 2000,
    // The engine keeps a script with any character beyond Latin-1 as UTF-16, twice its size:
    // escaped, the idle window's renderer holds 1 MB less (issue 29, docs/benchmarks.md).
    rolldownOptions: { output: { charset: "ascii" } },
  },
});
