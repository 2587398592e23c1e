/*
 * The org's working calendar. In Alsace-Moselle (Moselle 57, Bas-Rhin 67, Haut-Rhin 68) Good Friday and 26 December
 * are public holidays too (Code du travail, L3134-13): reminders skip them for an org that says it works there.
 * The setting is the org's choice, not deduced from its address: a registered office can lie elsewhere.
 */

/** True when the postal code lies in Moselle, Bas-Rhin or Haut-Rhin: the form then suggests the setting. */
export const suggestsAlsaceMoselle = (postalCode: string | null | undefined): boolean => /^\s*(57|67|68)\d{3}\s*$/.test(postalCode ?? '');
