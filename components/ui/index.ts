/*
 * The back-office's UI layer: pages load their data and compose these; none styles a button or a table by hand
 * (docs/conventions.md, "UI layer"). Server-compatible except form.tsx and action-form.tsx (state: 'use client').
 */
export { ActionForm } from './action-form';
export { Button, type ButtonLook, type ButtonProps, type ButtonVariant, buttonClass, DownloadButton, type DownloadButtonProps, LinkButton, type LinkButtonProps } from './button';
export { type Column, DataTable, type DataTableProps, MoneyCell } from './data-table';
export { Confirm, Dialog, type DialogProps } from './dialog';
export { EmptyState, type EmptyStateProps } from './empty-state';
export { FilterBar, type FilterBarProps, FilterSelect, type FilterSelectProps } from './filter-bar';
export { CheckboxField, Field, FieldError, FormActions, FormErrors, InlineOutcome, Input, MoneyInput, QuantityInput, Select, SubmitButton, TextArea, useFieldControl } from './form';
export { FilterChips, Pager, SortHeader } from './list-page';
export { type ListFilters, listHref, loadListPage, readListFilters, readListSort, type UrlFilters } from './list-query';
export { ChipLink, type ChipLinkProps, StatusChip, type StatusChipProps } from './status-chip';
