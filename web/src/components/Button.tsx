import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'danger' | 'text';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-primary text-white enabled:hover:bg-primary-hover disabled:bg-gray-300 disabled:text-gray-500',
  secondary: 'border border-gray-300 bg-white text-primary enabled:hover:bg-blue-50 disabled:text-gray-400',
  danger: 'bg-red-600 text-white enabled:hover:bg-red-700 disabled:bg-gray-300 disabled:text-gray-500',
  text: 'text-primary enabled:hover:bg-blue-50 disabled:text-gray-400',
};

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
}

export function Button({ variant = 'primary', className = '', type = 'button', ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={`inline-flex h-10 items-center justify-center gap-2 rounded-full px-5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
      {...props}
    />
  );
}
