/** The refusal of an acceptance, in French, from the code and field the accept route puts in the query (never what was typed). */
export function invitationError(code: string | undefined, field: string | undefined): string | null {
  if (!code) return null;
  if (code === 'invalid_credentials') return 'Mot de passe incorrect pour ce compte.';
  if (field === 'password_confirmation') return 'Les deux mots de passe diffèrent.';
  if (field === 'password') return 'Le mot de passe doit compter 10 caractères au moins.';
  if (code === 'not_found') return 'Cette invitation n’est plus valable.';
  return 'L’invitation n’a pas pu être acceptée : vérifiez les champs et réessayez.';
}
