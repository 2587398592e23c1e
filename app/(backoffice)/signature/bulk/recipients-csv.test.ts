import { describe, expect, it } from 'vitest';
import { readRecipients } from './recipients-csv';

describe('bulk send CSV', () => {
  it('reads French headers (prénom + nom, courriel, téléphone) with ";" and reports each row’s problems in French', () => {
    const csv = ['Prénom;Nom;Courriel;Téléphone', 'Anne;Petit;anne@exemple.fr;+33612345678', ';;;', 'Bruno;;pas-un-email;', 'Carla;Roy;ANNE@exemple.fr;'].join('\n');
    const { rows, problem } = readRecipients(csv, false);
    expect(problem).toBeUndefined();
    expect(rows.map((r) => [r.line, r.email, r.full_name, r.errors.length])).toEqual([
      [2, 'anne@exemple.fr', 'Anne Petit', 0],
      [4, 'pas-un-email', 'Bruno', 1],
      [5, 'ANNE@exemple.fr', 'Carla Roy', 1],
    ]);
    expect(rows[1]!.errors[0]).toMatch(/e-mail/i);
    expect(rows[2]!.errors[0]).toBe('Cette adresse figure déjà plus haut dans le fichier.');
  });

  it('asks the phone when signing by SMS, and names a missing column', () => {
    const { rows } = readRecipients('email,name,phone\nzoe@exemple.fr,Zoé,\nyan@exemple.fr,Yan,+33611111111', true);
    expect(rows.map((r) => r.errors)).toEqual([['Numéro de mobile obligatoire pour signer par SMS.'], []]);
    expect(readRecipients('nom,telephone\nA,1', false).problem).toBe('Aucune colonne « e-mail » dans la première ligne du fichier.');
    expect(readRecipients('email\na@b.fr', false).problem).toBe('Aucune colonne « nom » dans la première ligne du fichier.');
  });
});
