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
  },
});
