/** @jsxRuntime automatic @jsxImportSource react */
// (The pragma: the server also runs under tsx from the repository root, whose tsconfig does not
// cover apps/server, so the JSX runtime is named here.)
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ReactNode } from 'react';

/** What the sending layer adds under every user mail: why it came, and the one-click way out. */
export interface MailFooter {
  unsubscribeUrl: string;
}

export interface MailLayoutProps {
  /** The inbox preview line. */
  preview: string;
  heading: string;
  children: ReactNode;
  /** The one thing to do next: an absolute address (PUBLIC_URL). */
  action?: { label: string; href: string };
  /** The video's or export's thumbnail: an absolute, signed address a mail client loads. */
  picture?: MailPicture | undefined;
  footer?: MailFooter | undefined;
}

export interface MailPicture {
  src: string;
  alt: string;
}

const styles = {
  body: { backgroundColor: '#f4f3f8', fontFamily: 'Helvetica, Arial, sans-serif', margin: 0 },
  container: {
    backgroundColor: '#ffffff',
    borderRadius: 12,
    margin: '24px auto',
    maxWidth: 560,
    padding: '28px 32px',
  },
  brand: { color: '#6d28d9', fontSize: 14, fontWeight: 700, letterSpacing: 0.4, margin: 0 },
  heading: { color: '#1f1b2e', fontSize: 22, lineHeight: '30px', margin: '12px 0 8px' },
  button: {
    backgroundColor: '#6d28d9',
    borderRadius: 8,
    color: '#ffffff',
    fontSize: 15,
    fontWeight: 600,
    padding: '12px 20px',
  },
  footer: { color: '#6b6880', fontSize: 12, lineHeight: '18px' },
} as const;

/** Every mail's frame: the brand, a heading, the text, one button, and the footer. */
export function MailLayout(props: MailLayoutProps) {
  const { preview, heading, children, action, picture, footer } = props;
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Text style={styles.brand}>MOMENTS</Text>
          <Heading as="h1" style={styles.heading}>
            {heading}
          </Heading>
          {picture && (
            <img
              src={picture.src}
              alt={picture.alt}
              width={520}
              style={{ border: 0, borderRadius: 8, display: 'block', maxWidth: '100%' }}
            />
          )}
          {children}
          {action && (
            <Section style={{ margin: '20px 0' }}>
              <Button href={action.href} style={styles.button}>
                {action.label}
              </Button>
            </Section>
          )}
          {footer && (
            <>
              <Hr />
              <Text style={styles.footer}>
                You get this mail because of your Moments account.{' '}
                {/* Nothing after the link: in the text part a trailing "." would join the address. */}
                <Link href={footer.unsubscribeUrl}>Unsubscribe from these mails</Link>
              </Text>
            </>
          )}
        </Container>
      </Body>
    </Html>
  );
}

/** A paragraph of a mail. */
export function Paragraph({ children }: { children: ReactNode }) {
  return <Text style={{ color: '#2d2a3e', fontSize: 15, lineHeight: '23px' }}>{children}</Text>;
}
