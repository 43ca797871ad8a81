/*
 * The libraries the sandbox loads when they are first needed, not at start: the PDF, PNG and
 * barcode renderers (labels, manifests, combined files) and the image sniffers of logo uploads.
 * Loading goes through the rules (`rules.libraries`) so that one sandbox can be handed loaders of
 * its own: the tests hold a first load at a gate to act while it waits, as a slow first load on a
 * server lets other requests run (test/support/library-gate.ts).
 */

export type LabelLibraries = typeof import('./labels/index.js');

/** What tells an uploaded image's type by its content. */
export interface ImageSniffers {
  fileTypeFromBuffer(bytes: Uint8Array): Promise<{ mime: string } | undefined>;
  isSvg(text: string): boolean;
}

export interface Libraries {
  labels(): Promise<LabelLibraries>;
  imageSniffers(): Promise<ImageSniffers>;
}

/** The libraries as the modules load them: Node's module cache makes every call after the first immediate. */
export const importedLibraries: Libraries = {
  labels: () => import('./labels/index.js'),
  imageSniffers: async () => {
    const [{ fileTypeFromBuffer }, { default: isSvg }] = await Promise.all([import('file-type'), import('is-svg')]);
    return { fileTypeFromBuffer, isSvg };
  },
};
