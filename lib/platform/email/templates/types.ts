import type { ReactElement } from 'react';

/** A template applied to its data: the subject line and the React e-mail to render. */
export interface RenderedTemplate {
  subject: string;
  element: ReactElement;
}
