// What lib/platform/sandbox's worker runs to render one of our documents (render-bounded.ts declares it).
import type { RenderModel } from './model';
import { type RenderedDocument, renderDocument } from './render-document';

export const renderInWorker = (model: RenderModel): Promise<RenderedDocument> => renderDocument(model);
