/*
 * The French of every English message the API's schemas and services write for a field (the message without its
 * `field: ` prefix), as a pattern and its French. The API keeps its English; the back-office shows this. A new
 * message in lib/ without a pattern here fails lib/platform/i18n/errors-fr.test.ts. No imports: client components read it.
 */

type French = string | ((match: RegExpMatchArray) => string);

const n = String.raw`([\d.,e]+)`;

export const TEXT_PATTERNS: ReadonlyArray<readonly [RegExp, French]> = [
  // Written in French already (the accountant's settings, lib/domain/exports): the field's label is shown before it.
  [/^(?:Compte client|Compte de ventes|Compte de TVA) : un compte (\d+)( \(TVA collectée\))?\.$/, (m) => `Un compte ${m[1]}${m[2] ?? ''}.`],
  // Presence and shape
  [/^required \(the quote has no deposit_request_percentage\)$/, 'Indiquez le pourcentage de l’acompte : le devis n’en prévoit pas.'],
  [/^required\b/, 'Ce champ est obligatoire.'],
  [/^must not be blank$/, 'Ce champ ne peut pas être vide.'],
  [/^(?:A key|The organisation) needs a name\.$/, 'Indiquez un nom.'],
  [/^Choose at least one scope\.$/, 'Choisissez au moins un droit.'],
  [/^no name nor company\b.*$/, 'Indiquez un nom, un prénom ou une société.'],
  [/^unknown field$/, 'Ce champ n’existe pas.'],
  [/^must be an object$|^row is not an object$|^Invalid input\.$/, 'Donnée illisible.'],
  [/^must be an array of (?:contact objects|lines|strings|day offsets|contact ids|e-mail addresses)$/, 'Liste illisible.'],
  [/^contacts: must be an array of contact objects$/, 'Liste de contacts illisible.'],
  [/^must be a string$/, 'Texte attendu.'],
  [/^must be a .+ string(?: such as .+)?$/, 'Nombre attendu (ex. 2,5).'],
  [/^must be (?:a boolean|true or false)(?:, not ".*"\.)?$/, 'Oui ou non attendu.'],
  [/^contains (?:a NUL character|a control character|an invalid character|an unpaired UTF-16 surrogate)$/, 'Ce texte contient un caractère invisible interdit : retapez-le.'],
  [/^listed twice$/, 'Cette valeur figure deux fois.'],
  // Lengths and counts
  [new RegExp(`^at most ${n} characters$`), (m) => `Au plus ${m[1]} caractères.`],
  [new RegExp(`^at most ${n} lines$`), (m) => `Au plus ${m[1]} lignes.`],
  [new RegExp(`^at most ${n} steps$`), (m) => `Au plus ${m[1]} relances.`],
  [new RegExp(`^at most ${n} distinct tags$`), (m) => `Au plus ${m[1]} étiquettes.`],
  [new RegExp(`^at most ${n} addresses$`), (m) => `Au plus ${m[1]} adresses.`],
  [new RegExp(`^at most ${n} tokens$`), (m) => `Au plus ${m[1]} événements.`],
  [new RegExp(`^at most ${n} contacts per merge$`), (m) => `Au plus ${m[1]} contacts par fusion.`],
  [new RegExp(`^at most ${n} decimals$`), (m) => `Au plus ${m[1]} décimales.`],
  [new RegExp(`^at most ${n} cents$`), 'Montant trop élevé.'],
  [/^the amount is too large$/, 'Montant trop élevé.'],
  [new RegExp(`^at most ${n} months per request$`), (m) => `Au plus ${m[1]} mois à la fois.`],
  [new RegExp(`^at most ${n} days ahead$`), (m) => `Au plus ${m[1]} jours à l’avance.`],
  [/^Password must be at least (\d+) characters\.$/, (m) => `Au moins ${m[1]} caractères.`],
  [/^give at least one contact to merge$/, 'Choisissez au moins un contact à fusionner.'],
  [/^give at least one line, or omit items for a full credit note$/, 'Gardez au moins une ligne, ou créez un avoir total.'],
  // Numbers and amounts
  [/^must be an integer(?: number of (?:cents|days))?$/, 'Nombre entier attendu.'],
  [/^must be at least 1 cent$/, 'Le montant doit être d’au moins 0,01 €.'],
  [/^must not be negative$/, 'Ne peut pas être négatif.'],
  [/^must be between 0 and 100$/, 'Entre 0 et 100.'],
  [/^must be greater than 0 and at most 100$/, 'Un pourcentage supérieur à 0 et au plus 100.'],
  [/^must be greater than 0 \(and at most 1e9\)$/, 'Un nombre supérieur à 0.'],
  [/^must be strictly positive \(a discount is a line of kind discount, without quantity\)$/, 'Une quantité supérieure à 0 (une remise est une ligne de type remise, sans quantité).'],
  [/^must be at least (-?\d+) \(days from the (\w+)\)$/, (m) => `Au moins ${m[1]} jours.`],
  [/^must be at most (-?\d+) \(days from the (\w+)\)$/, (m) => `Au plus ${m[1]} jours.`],
  // Roles and invitations (lib/platform/next/action.ts, lib/platform/orgs/invitations.ts)
  [/^Votre accès de comptable est en lecture seule/, (m) => m.input ?? ''],
  [/^Password required\.$/, 'Mot de passe requis.'],
  // Identifiers and formats
  [/^must be an e-mail address$|^malformed e-mail$/, 'Adresse e-mail invalide (ex. nom@exemple.fr).'],
  [/^must be an e-mail address of at most 254 characters, 64 before the @$|^E-mail address is too long \(RFC 5321\)\.$/, 'Adresse e-mail trop longue : 64 caractères au plus avant le @, 254 en tout.'],
  [/^must be an ISO 3166-1 alpha-2 country code$|^Country must be an ISO 3166-1 alpha-2 code\.$|^country code not assigned$/, 'Choisissez un pays de la liste.'],
  [/^(\S+) must be (\d+) digits\.?$/, (m) => `Le ${m[1]} compte ${m[2]} chiffres.`],
  [/^SIRET must start with the SIREN\.$/, 'Le SIRET doit commencer par le SIREN.'],
  [/^(?:intra-EU )?VAT number must (?:look like FR12345678901\.|be an EU country prefix followed by .+)$/, 'Numéro de TVA invalide (ex. FR12345678901).'],
  [/^must be an IBAN$/, 'IBAN invalide.'],
  [/^must be a BIC \(8 or 11 characters\)$/, 'BIC invalide (8 ou 11 caractères).'],
  [/^must be a date YYYY-MM-DD$|^a malformed date$/, 'Date invalide.'],
  [/^must be an RFC 3339 timestamp$/, 'Date et heure invalides.'],
  [/^must be a contact id$|^no such contact$/, 'Choisissez un client existant.'],
  [/^must be a product id$|^no such product$/, 'Choisissez un produit existant.'],
  [/^must be the id of the target or (?:of one of source_ids|a source)$/, 'Choisissez l’un des contacts fusionnés.'],
  [/^cannot merge a contact into itself$/, 'Un contact ne peut pas être fusionné avec lui-même.'],
  [/^this contact is deleted; restore it first$/, 'Ce client est supprimé : restaurez-le d’abord.'],
  [/^this contact was erased$/, 'Ce client a été effacé (RGPD).'],
  [/^this contact was (?:already )?merged into .+$/, 'Ce client a été fusionné avec un autre : choisissez ce dernier.'],
  [/^must be a UN\/ECE Rec 20 unit code such as HUR, DAY or C62$/, 'Choisissez une unité de la liste.'],
  [/^must be a VATEX code of the catalogue \(docs\/billing\.md\)$/, 'Choisissez un motif d’exonération de la liste.'],
  [/^must be 1 to 20 characters among A-Z a-z 0-9 \+ - _ \/ .*$/, 'De 1 à 20 caractères : lettres, chiffres, + - _ /.'],
  [/^already used by the (\w+) series \((.+)\)$/, (m) => `Déjà utilisé par une autre série de numérotation (${m[2]}).`],
  [/^a provider account id such as .+$/, 'Identifiant de compte du prestataire invalide (ex. acct_…).'],
  // Signature
  [/^must be a uuid$/, 'Identifiant invalide.'],
  [/^must be an array of signers$/, 'Liste de signataires illisible.'],
  [/^at most (\d+) signers$/, (m) => `Au plus ${m[1]} signataires.`],
  [/^at most (\d+)$/, (m) => `Au plus ${m[1]}.`],
  [/^must be (\d+) or more$/, (m) => `Au moins ${m[1]}.`],
  [/^must be a phone number in E\.164 form.*$/, 'Numéro au format international attendu (ex. +33612345678).'],
  [/^cannot be none at the advanced assurance level$/, 'Au niveau avancé, chaque signataire confirme son identité par un code.'],
  [/^no such signature document$/, 'Choisissez un document à signer existant.'],
  [/^no such signature template$/, 'Choisissez un modèle d’enveloppe existant.'],
  [/^a signature field is filled by signing$/, 'Ce champ se remplit en signant.'],
  [/^no such requested document for this signer$/, 'Ce document ne vous est pas demandé.'],
  [/^must be a PDF, PNG or JPEG$/, 'Joignez un PDF, une image PNG ou JPEG.'],
  [/^must be a PNG data URL \(data:image\/png;base64,…\)$|^not a PNG image$/, 'Signature dessinée illisible : recommencez.'],
  [new RegExp(`^the drawing is larger than ${n} KiB$`), 'Signature dessinée trop lourde : recommencez plus simplement.'],
  [/^must be a string, a boolean or null$/, 'Valeur illisible.'],
  [/^the envelope has no signer$/, 'Ajoutez au moins un signataire.'],
  [/^the document's text tags name signer (\d+); give at least \d+ signers$/, (m) => `Les balises du document nomment le signataire ${m[1]} : ajoutez au moins ${m[1]} signataires.`],
  [/^the document's text tags name signer (\d+); a bulk envelope has one signer$/, (m) => `Les balises du document nomment le signataire ${m[1]} : un envoi groupé n’a qu’un signataire par enveloppe.`],
  [/^must be in the future(?: to send)?$/, 'Choisissez une date à venir.'],
  [/^must be a member of the organisation$/, 'Choisissez un membre de l’organisation.'],
  [/^an accountant \(read-only access\) cannot approve$/, 'Un comptable a un accès en lecture seule : il ne peut pas approuver. Choisissez un autre membre.'],
  [/^required when calling with an API key$/, 'Indiquez l’approbateur : une clé d’API n’est pas une personne.'],
  [/^is not an approver of this envelope$/, 'Cette personne n’est pas approbatrice de cette enveloppe.'],
  [/^must be a finalized (?:devis|facture) of the organisation$/, 'Choisissez un devis ou une facture finalisé(e).'],
  // Signature forms and bulk sending
  [/^must be an object \{email, full_name, phone\}$/, 'Destinataire illisible : une adresse e-mail et un nom sont attendus.'],
  [/^appears earlier in the request$/, 'Ce destinataire figure déjà plus haut dans la liste.'],
  [/^at least one recipient$/, 'Ajoutez au moins un destinataire.'],
  [/^at most (\d+) recipients$/, (m) => `Au plus ${m[1]} destinataires par envoi.`],
  [/^required \(an array of 1 to 100 recipients\)$/, 'Ajoutez de 1 à 100 destinataires.'],
  [/^required to sign by SMS code$/, 'Indiquez un numéro de mobile : le code de signature est envoyé par SMS.'],
  [/^required \(true or false\)$/, 'Choisissez oui ou non.'],
  [/^must be one of email_otp, sms_otp$/, 'Choisissez une vérification par e-mail ou par SMS.'],
  // Signature fields, requested and attached documents
  [/^must be (?:a number )?between 0 and 1$/, 'Nombre entre 0 et 1 attendu (une fraction de la page).'],
  [/^must be more than 0$/, 'Plus de 0.'],
  [/^[xy] \+ (?:width|height) must be at most 1: the box must stay within the page$/, 'Le cadre doit rester dans la page.'],
  [/^must be an array of (?:fields|requested documents)$/, 'Liste illisible.'],
  [/^at most (\d+) (?:fields|requested documents)$/, (m) => `Au plus ${m[1]}.`],
  [/^appears twice$/, 'Ce champ figure deux fois.'],
  [/^not a signer of this envelope$/, 'Choisissez un signataire de cette enveloppe.'],
  [/^the document has (\d+) page\(s\)$/, (m) => `Le document a ${m[1]} page(s).`],
  [/^this is the document the envelope is signed on$/, 'C’est déjà le document à signer de l’enveloppe.'],
  // Choices
  [/^must be particulier or professionnel$/, 'Choisissez particulier ou professionnel.'],
  [/^must be fr or en$/, 'Choisissez français ou anglais.'],
  [/^must be biens, services or mixte$/, 'Choisissez biens, services ou mixte.'],
  [/^must be debits or encaissements$/, 'Choisissez sur les débits ou sur les encaissements.'],
  [/^must be devis or facture\b.*$/, 'Choisissez devis ou facture.'],
  [/^must be gentle, firm or final$/, 'Choisissez un ton de la liste.'],
  [/^must be none, deposit_then_balance or installments$/, 'Choisissez un échéancier de la liste.'],
  [/^must be product or discount$/, 'Choisissez produit ou remise.'],
  [/^must be monthly, quarterly or yearly$/, 'Choisissez mensuelle, trimestrielle ou annuelle.'],
  [/^must be active or paused$/, 'Choisissez active ou en pause.'],
  [/^at least one line$/, 'Ajoutez au moins une ligne.'],
  [/^must be one of .+$/, 'Choisissez une valeur de la liste.'],
  [/^must differ from (\w+)$/, (m) => `Doit différer de « ${m[1]} ».`],
  // Dates
  [/^must not be before (issue_date_from|from)$/, 'Doit être après la date de début.'],
  [/^must not be before issue_date$/, 'Ne peut pas précéder la date d’émission.'],
  [/^must not be in the past \(omit it to send now\)$/, 'Ne peut pas être dans le passé (laissez vide pour relancer maintenant).'],
  [/^a payment cannot be received in the future$/, 'Un paiement ne peut pas être daté dans le futur.'],
  [/^a refund cannot be made in the future$/, 'Un remboursement ne peut pas être daté dans le futur.'],
  [
    /^at most (\d+) cents can be refunded, what the client is owed$/,
    (m) => `Au plus ${(Number(m[1]) / 100).toFixed(2).replace('.', ',')} € : c’est ce qui est dû au client.`,
  ],
  [
    /^at most (\d+) cents can be refunded, what the client is owed less the refunds pending at the provider$/,
    (m) => `Au plus ${(Number(m[1]) / 100).toFixed(2).replace('.', ',')} € : ce qui est dû au client, moins les remboursements par carte en cours.`,
  ],
  [
    /^at most (\d+) cents can be refunded through the provider, what is left of the online payment$/,
    (m) => `Au plus ${(Number(m[1]) / 100).toFixed(2).replace('.', ',')} € par carte : ce qui reste du paiement en ligne.`,
  ],
  [/^an invoice cannot be finalized before its issue date \((.+)\)$/, (m) => `La facture ne peut pas être finalisée avant sa date d’émission (${m[1]}).`],
  // Lines, VAT and amounts of a document
  [/^a document needs at least one line to be finalized$/, 'Ajoutez au moins une ligne avant de finaliser.'],
  [/^a credit note must credit a positive amount$/, 'L’avoir doit porter sur un montant positif.'],
  [/^a discount line has quantity "-1".*$/, 'Une remise a la quantité « -1 » (ou laissez vide) ; son prix unitaire est le montant déduit.'],
  [/^(\w+) applies at a 0 % rate only$/, 'Cette catégorie de TVA ne s’applique qu’au taux de 0 %.'],
  [/^S \(standard\) needs a rate above 0.*$/, 'Le taux normal demande un taux supérieur à 0 ; à 0 %, choisissez une autre catégorie.'],
  [/^a 0 % line needs its VAT category.*$/, 'Une ligne à 0 % demande sa catégorie de TVA (et son motif d’exonération).'],
  [/^discounts at (\S+) % exceed that rate's subtotal.*$/, (m) => `Les remises à ${m[1]} % dépassent le sous-total à ce taux.`],
  [/^no line at (\S+) % \(category .+\) for this discount to reduce$/, (m) => `Aucune ligne à ${m[1]} % à laquelle appliquer cette remise.`],
  [/^credits (\S+) cents at (\S+) %, more than the (\S+) cents invoiced$/, (m) => `L’avoir dépasse le montant facturé à ${m[2]} %.`],
  [/^.+ has no line at (\S+) % \(category .+\)$/, (m) => `La facture n’a pas de ligne à ${m[1]} %.`],
  [/^(?:an intra-EU supply \(K\)|reverse charge \(AE\)) needs the (buyer|seller)’s VAT number.*$/, (m) =>
    m[1] === 'buyer' ? 'Cette catégorie de TVA demande le numéro de TVA du client.' : 'Cette catégorie de TVA demande votre numéro de TVA (réglages).'],
  // Payment plan and deposits
  [/^(\w+) needs (.+)$/, (m) =>
    m[1] === 'deposit_then_balance' ? 'Indiquez le pourcentage de l’acompte (ex. 30).' : 'Indiquez les échéances de l’échéancier.'],
  [/^must be null when payment_plan_kind is none$/, 'Sans échéancier, laissez ce champ vide.'],
  [/^the deposit would be zero$/, 'Avec ce pourcentage, l’acompte serait nul.'],
  [/^with the (\S+) % already invoiced as deposits, the quote would exceed 100 %$/, (m) => `Avec les ${m[1]} % déjà facturés en acomptes, le devis dépasserait 100 %.`],
  // Webhooks
  [/^must be a documented event token or \*$/, 'Choisissez des événements de la liste (ou * pour tous).'],
  [/^must be an absolute URL$/, 'Indiquez une adresse complète (https://…).'],
  [/^must be an https URL$/, 'L’adresse doit commencer par https://.'],
  [/^must not contain credentials$/, 'L’adresse ne doit pas contenir d’identifiant ni de mot de passe.'],
  [/^host name does not resolve$/, 'Ce nom de domaine est introuvable.'],
  [/^timeout after \d+ ms$/, 'Le destinataire n’a pas répondu à temps.'],
  [/^event not found$/, 'Événement introuvable.'],
  [/^must not resolve to a non-public address\b.*$/, 'Cette adresse mène à un réseau privé ou réservé : indiquez une adresse publique.'],
  // E-invoicing (PA connection, directory enrollment)
  [/^must be afnor \(the AFNOR XP Z12-013 interface\)$/, 'Choisissez l’interface AFNOR XP Z12-013 (afnor).'],
  [/^must be a URL$/, 'Indiquez une adresse complète (https://…).'],
  [/^must not have a query or fragment$/, 'L’adresse ne doit contenir ni paramètre (?…) ni ancre (#…).'],
  [/^send the secret itself \(a masked value only keeps the stored secret, and none is stored\)$/, 'Saisissez le secret lui-même : la valeur masquée ne fait que conserver un secret déjà enregistré, et il n’y en a pas.'],
  [/^must be a SIREN: 9 digits with a valid check digit \(Luhn\)$/, 'SIREN invalide : 9 chiffres dont une clé de contrôle valide.'],
  [/^must be a SIRET: 14 digits with a valid check digit \(Luhn\)$/, 'SIRET invalide : 14 chiffres dont une clé de contrôle valide.'],
  [/^must belong to the SIREN \(start with its 9 digits\)$/, 'Le SIRET doit commencer par le SIREN.'],
  [/^must be 1 to 100 characters among A-Z a-z 0-9 - _ \/$/, 'De 1 à 100 caractères parmi A-Z a-z 0-9 - _ /.'],
  [/^a routing code belongs to a SIRET: give the siret too$/, 'Un code de routage appartient à un établissement : indiquez aussi le SIRET.'],
  // E-reporting (preferences, GET /v1/invoices/ereporting)
  [/^must be reel_normal_mensuel, reel_normal_trimestriel, reel_simplifie or franchise$/, 'Choisissez un régime de TVA de la liste.'],
  [/^must be decade, monthly or bimonthly$/, 'Choisissez décadaire, mensuelle ou bimestrielle.'],
  [/^must be (\w+) for the VAT regime \w+$/, (m) =>
    `Ce régime de TVA impose une périodicité ${({ decade: 'décadaire', monthly: 'mensuelle', bimonthly: 'bimestrielle' } as Record<string, string>)[m[1]!] ?? m[1]}.`],
  [/^at most one year \(to must be before the same day a year after from\)$/, 'Une année au plus : la date de fin doit précéder le même jour un an après la date de début.'],
  // Sending and reminders
  [/^only a payment reminder has a tone$/, 'Seule une relance de paiement a un ton.'],
  [/^(\d+) bytes, more than the (\d+) an e-mail may carry$/, 'Les pièces jointes sont trop lourdes pour un e-mail.'],
  [/^(\d+) attachment\(s\) lost their content$/, 'Des pièces jointes ont perdu leur contenu.'],
];

/** The French of an English message of a field (without its `field: ` prefix), or null when none is known. */
export function frenchText(message: string): string | null {
  for (const [pattern, french] of TEXT_PATTERNS) {
    const match = message.match(pattern);
    if (match) return typeof french === 'string' ? french : french(match);
  }
  return null;
}
