'use client';

import { useState } from 'react';
import { Button, SubmitButton } from '@/components/ui';
import { eraseContactAction } from '../actions';

/** Erasure is final: the button only opens a confirmation that says so. */
export function EraseButton({ id, name }: { id: string; name: string }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Effacer les données (RGPD)
      </Button>
    );
  }
  return (
    <div className="notice notice-warning" role="alertdialog" aria-labelledby="erase-title" aria-describedby="erase-text">
      <strong id="erase-title">Effacer définitivement {name} ?</strong>
      <p id="erase-text">
        Cette action est <strong>irréversible</strong> : nom, coordonnées, identifiants, notes, étiquettes et historique de
        consentement sont supprimés, ainsi que ceux des contacts fusionnés dans celui-ci. Le contact reste une fiche vide
        pour que les factures finalisées, qui gardent leur copie figée du client, restent valides. Pensez à exporter les
        données d’abord si la personne les a demandées.
      </p>
      <form action={eraseContactAction} className="form-actions">
        <input type="hidden" name="id" value={id} />
        <SubmitButton variant="danger">Effacer définitivement</SubmitButton>
        <Button variant="ghost" onClick={() => setConfirming(false)}>
          Annuler
        </Button>
      </form>
    </div>
  );
}
