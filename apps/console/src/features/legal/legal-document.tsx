import { Fragment } from 'react';
import { Anchor, Divider, List, Paper, Stack, Text, Title } from '@mantine/core';
import { PublicLayout } from '../../components/public-layout';

export interface LegalSection {
  heading: string;
  paragraphs: string[];
  items?: string[];
}

interface LegalDocumentProps {
  title: string;
  lastUpdated: string;
  intro: string[];
  sections: LegalSection[];
}

/** The shared layout of the Terms of Use and the Privacy Policy, with a table of contents. */
export function LegalDocument({ title, lastUpdated, intro, sections }: LegalDocumentProps) {
  return (
    <PublicLayout>
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} component="article">
        <Title order={1} fz={32}>
          {title}
        </Title>
        <Text c="dimmed" mt={6}>
          Last updated: {lastUpdated}
        </Text>
        <Stack gap="sm" mt="xl">
          {intro.map((paragraph) => (
            <Text key={paragraph} lh={1.7}>
              {paragraph}
            </Text>
          ))}
        </Stack>
        <Paper component="nav" aria-label="Contents" bg="var(--kumo-color-page)" radius="md" p="lg" mt="xl">
          <Text fw={600} mb="xs">
            Contents
          </Text>
          <List type="ordered" spacing={4} fz="sm">
            {sections.map((section, index) => (
              <List.Item key={section.heading}>
                <Anchor href={`#section-${index + 1}`} fz="sm">
                  {section.heading}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Paper>
        {sections.map((section, index) => (
          <Fragment key={section.heading}>
            <Divider my="xl" />
            <Stack gap="sm" id={`section-${index + 1}`} style={{ scrollMarginTop: 16 }}>
              <Title order={2} fz="xl">
                {index + 1}. {section.heading}
              </Title>
              {section.paragraphs.map((paragraph) => (
                <Text key={paragraph} lh={1.7}>
                  {paragraph}
                </Text>
              ))}
              {section.items && (
                <List spacing={6} lh={1.6}>
                  {section.items.map((item) => (
                    <List.Item key={item}>{item}</List.Item>
                  ))}
                </List>
              )}
            </Stack>
          </Fragment>
        ))}
      </Paper>
    </PublicLayout>
  );
}
