import type { InboundParseStatus } from '@/db/schema';

/** The parse status of a received invoice, in the inbox's words. */
export const PARSE_STATUS_LABELS: Record<InboundParseStatus, { label: string; chip: string }> = {
  parsed: { label: 'Lue', chip: 'chip-green' },
  parse_failed: { label: 'Illisible', chip: 'chip-red' },
  pending: { label: 'En lecture', chip: 'chip-grey' },
};

/** The answer sent for it (lifecycle token → label and chip); none yet: « À traiter ». */
export const ANSWER_LABELS: Record<string, { label: string; chip: string }> = {
  approuvee: { label: 'Approuvée', chip: 'chip-green' },
  refusee: { label: 'Refusée', chip: 'chip-red' },
  en_litige: { label: 'En litige', chip: 'chip-amber' },
};
export const answerLabel = (token: string | null) => (token ? (ANSWER_LABELS[token] ?? { label: token, chip: 'chip-grey' }) : { label: 'À traiter', chip: 'chip-blue' });

/** XP Z12-012's reasons of a refusal (210), in French. */
export const REFUSAL_REASON_LABELS: Record<string, string> = {
  TX_TVA_ERR: 'Taux de TVA erroné',
  MONTANTTOTAL_ERR: 'Montant total erroné',
  CALCUL_ERR: 'Erreur de calcul',
  NON_CONFORME: 'Facture non conforme',
  DOUBLON: 'Doublon',
  DEST_ERR: 'Mauvais destinataire',
  TRANSAC_INC: 'Transaction inconnue',
  EMMET_INC: 'Émetteur inconnu',
  CONTRAT_TERM: 'Contrat terminé',
  DOUBLE_FACT: 'Double facturation',
  CMD_ERR: 'Commande erronée',
  ADR_ERR: 'Adresse erronée',
  REF_CT_ABSENT: 'Référence du contrat absente',
};

export const FORMAT_LABELS: Record<string, string> = { cii: 'XML CII', ubl: 'XML UBL', facturx: 'PDF Factur-X' };
