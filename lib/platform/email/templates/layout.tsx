import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from '@react-email/components';
import type { ReactNode } from 'react';
import type { Language } from './nouns';

const styles = {
  body: { backgroundColor: '#f6f7f9', fontFamily: 'Helvetica, Arial, sans-serif', color: '#1d2433', margin: 0, padding: '24px 0' },
  container: { backgroundColor: '#ffffff', border: '1px solid #e4e7ec', borderRadius: '8px', maxWidth: '560px', padding: '28px 32px' },
  seller: { fontSize: '13px', fontWeight: 700, letterSpacing: '0.04em', textTransform: 'uppercase', color: '#667085', margin: '0 0 8px' },
  heading: { fontSize: '22px', lineHeight: '28px', margin: '0 0 20px' },
  text: { fontSize: '15px', lineHeight: '23px', margin: '0 0 14px' },
  strong: { fontSize: '15px', lineHeight: '23px', margin: '0 0 14px', fontWeight: 700 },
  facts: { backgroundColor: '#f6f7f9', borderRadius: '6px', padding: '12px 16px', margin: '4px 0 18px' },
  fact: { fontSize: '14px', lineHeight: '22px', margin: 0 },
  message: { borderLeft: '3px solid #c7d0ff', padding: '2px 0 2px 14px', margin: '0 0 18px' },
  button: { backgroundColor: '#3b4fd8', color: '#ffffff', borderRadius: '6px', fontSize: '15px', fontWeight: 700, padding: '12px 22px', textDecoration: 'none' },
  notice: { backgroundColor: '#fffaf0', border: '1px solid #f5d59b', borderRadius: '6px', padding: '12px 16px', margin: '0 0 18px' },
  hr: { borderColor: '#e4e7ec', margin: '24px 0 16px' },
  footer: { fontSize: '12px', lineHeight: '18px', color: '#667085', margin: 0 },
} as const;

const FOOTER: Record<Language, (seller: string) => string> = {
  fr: (seller) => `Ce message vous a été envoyé par ${seller} via Paraphe. Pour toute question, répondez simplement à cet e-mail.`,
  en: (seller) => `This message was sent by ${seller} via Paraphe. For any question, simply reply to this e-mail.`,
};

/**
 * The frame every e-mail shares: seller's name, heading, body, footer. `preview` is the inbox snippet. `footer` replaces
 * the "sent by the seller" line for the e-mails Paraphe itself sends to its users (security notices).
 */
export function Layout(props: { lang: Language; seller: string; preview: string; heading: string; footer?: string; children: ReactNode }) {
  return (
    <Html lang={props.lang}>
      <Head />
      <Preview>{props.preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Text style={styles.seller}>{props.seller}</Text>
          <Heading as="h1" style={styles.heading}>
            {props.heading}
          </Heading>
          {props.children}
          <Hr style={styles.hr} />
          <Text style={styles.footer}>{props.footer ?? FOOTER[props.lang](props.seller)}</Text>
        </Container>
      </Body>
    </Html>
  );
}

export function P({ children, strong }: { children: ReactNode; strong?: boolean }) {
  return <Text style={strong ? styles.strong : styles.text}>{children}</Text>;
}

/** Label/value lines in a shaded box: number, amount, dates. */
export function Facts({ rows }: { rows: Array<[label: string, value: string]> }) {
  return (
    <Section style={styles.facts}>
      {rows.map(([label, value]) => (
        <Text key={label} style={styles.fact}>
          {label} : <strong>{value}</strong>
        </Text>
      ))}
    </Section>
  );
}

/** The sender's own words, quoted as written: paragraphs on blank lines, line breaks kept. */
/** Whether the sender's own message starts by greeting the reader: then it replaces ours instead of doubling it. */
export const opensWithGreeting = (text: string | null | undefined) =>
  /^\s*(bonjour|bonsoir|salut|madame|monsieur|mesdames|messieurs|ch[eè]re?s?|hello|hi|dear|good (morning|afternoon|evening))\b/i.test(text ?? '');

export function Message({ text }: { text: string | null | undefined }) {
  if (!text?.trim()) return null;
  return (
    <Section style={styles.message}>
      {text
        .trim()
        .split(/\n\s*\n/)
        .map((paragraph, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity but their order
          <Text key={i} style={styles.text}>
            {withBreaks(paragraph)}
          </Text>
        ))}
    </Section>
  );
}

/** "a\nb" → a<br/>b. */
function withBreaks(paragraph: string): ReactNode[] {
  const out: ReactNode[] = [];
  for (const [j, line] of paragraph.split('\n').entries()) {
    if (j > 0) out.push(<br key={j} />);
    out.push(line);
  }
  return out;
}

export function Action({ href, label }: { href: string | null | undefined; label: string }) {
  if (!href) return null;
  return (
    <Section style={{ margin: '6px 0 22px' }}>
      <Button href={href} style={styles.button}>
        {label}
      </Button>
    </Section>
  );
}

/** A boxed paragraph for what the recipient must not miss (legal mentions of a last notice). */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <Section style={styles.notice}>
      <Text style={{ ...styles.text, margin: 0 }}>{children}</Text>
    </Section>
  );
}

export function SignOff({ closing, seller }: { closing: string; seller: string }) {
  return (
    <Text style={styles.text}>
      {closing}
      <br />
      {seller}
    </Text>
  );
}
